import { PGlite } from '@electric-sql/pglite';
let t=Date.now();
const db = await PGlite.create();
console.log('mem boot', Date.now()-t);
t=Date.now();
const db2 = await PGlite.create('/tmp/pgltest');
console.log('disk boot', Date.now()-t);
console.log((await db2.query('select version()')).rows);
