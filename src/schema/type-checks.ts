// Compile-time only: the public types (src/types/, hand-written so the published declarations stay
// readable and free of zod) are the schemas' types. A drift on either side fails `npm run typecheck`.

import type { z } from 'zod';
import type {
  EmptySearchResponse,
  ErrorCode,
  ExtractParams,
  ExtractResponse,
  PageMetadata,
  SearchParams,
  SearchResponse,
  UsageResponse,
} from '../types/index.js';
import type { errorCode } from './errors.js';
import type { extractRequest, extractResponse } from './extract.js';
import type { pageMetadata } from './page-metadata.js';
import type { emptySearchResponse, searchRequest, searchResponse } from './search.js';
import type { usageResponse } from './usage.js';

/** Deep, with `| undefined` dropped: zod types optional fields `T | undefined`, the interfaces `T`. */
type Loose<T> = T extends object ? { [K in keyof T]: Loose<Exclude<T[K], undefined>> } : T;
/** Identical (not merely assignable: an extra optional field is a difference). */
type Same<A, B> = (<T>() => T extends Loose<A> ? 1 : 2) extends <T>() => T extends Loose<B> ? 1 : 2 ? true : false;
const same = <_ extends true>(): void => undefined;

same<Same<SearchParams, z.input<typeof searchRequest>>>();
same<Same<ExtractParams, z.input<typeof extractRequest>>>();
same<Same<SearchResponse, z.output<typeof searchResponse>>>();
same<Same<EmptySearchResponse, z.output<typeof emptySearchResponse>>>();
same<Same<ExtractResponse, z.output<typeof extractResponse>>>();
same<Same<PageMetadata, z.output<typeof pageMetadata>>>();
same<Same<UsageResponse, z.output<typeof usageResponse>>>();
same<Same<ErrorCode, z.output<typeof errorCode>>>();
