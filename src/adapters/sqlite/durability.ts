// Its own file so the public EngineOptions declarations don't reach database.ts (and better-sqlite3's types).

export type Durability = 'full' | 'normal';
