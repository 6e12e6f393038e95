// Public types: the ports users implement (Clock, SearchSource) and the wire shapes of requests and
// responses, one file per family.
export type * from './clock.js';
export type * from './engine.js';
export type * from './errors.js';
export type * from './extract.js';
export type * from './requests.js';
export type * from './search.js';
export type * from './sources.js';
