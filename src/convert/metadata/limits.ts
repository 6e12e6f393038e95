// The caps on page-metadata values, in one place: the readers (read.ts, feeds.ts, urls.ts) trim to
// them, and tests and callers read them from here (through index.ts).

export const MAX_TITLE_CHARS = 500;
export const MAX_DESCRIPTION_CHARS = 1_000;
export const MAX_SITE_NAME_CHARS = 200;
export const MAX_URL_CHARS = 2_048;
export const MAX_LINKS = 1_000;
