#!/usr/bin/env node
// The raw-rate side of the throughput figure: as many transcript requests as the engine makes,
// with as many connections, from a process of its own, doing nothing with the answers but read them.
// Usage: node bench/load.mjs URL KEY REQUESTS CONNECTIONS
import { Pool } from 'undici';

const [url, key, total, connections] = process.argv.slice(2);
const pool = new Pool(url, { connections: Number(connections) });
const headers = { authorization: `Bearer ${key}`, 'user-agent': 'scriptorium-bench' };
let next = 0;
async function worker() {
  while (next < Number(total)) {
    const id = `ld${String(next++).padStart(9, '0')}`;
    const path = `/api/v2/transcript?video_url=${id}&format=json&include_timestamp=true&send_metadata=true`;
    const response = await pool.request({ method: 'GET', path, headers });
    await response.body.text();
  }
}
await Promise.all(Array.from({ length: Number(connections) }, worker));
await pool.close();
