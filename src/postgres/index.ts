// websift/postgres: the ledger and key store on PostgreSQL, for many websift instances sharing one set
// of books. Needs the optional peer dependency `pg` (npm install pg) unless you pass your own pool.
export * from '../adapters/postgres/index.js';
