// Where websift lives: the one place that names the repository, so the default User-Agent, the
// deprecation Link header and the docs links all point at the same, existing pages.

/** The package version (test/package/project.test.ts keeps it equal to package.json's). */
export const PACKAGE_VERSION = '0.1.0';

/** The source repository; its docs/ folder is the documentation users are pointed at. */
export const REPOSITORY_URL = 'https://github.com/websift/websift';

/** A page of the documentation in the repository, e.g. `docsUrl('http.md#deprecated-search-parameters')`. */
export const docsUrl = (page: string): string => `${REPOSITORY_URL}/blob/main/docs/${page}`;

/**
 * The default User-Agent of every request websift makes (page fetches, robots.txt, search providers).
 * Its first word, `websift`, is the product token robots.txt rules are matched against.
 */
export const DEFAULT_USER_AGENT = `websift/${PACKAGE_VERSION} (+${REPOSITORY_URL})`;
