/**
 * Child process: times one host start against a seeded SQLite file. Modules are imported first (not timed);
 * then t0 = createFlagmount(), the instance is mounted in Fastify, and the child requests
 * `GET /flags/features/evaluated?key=<first flag>` from itself over loopback (the first answered request), then the
 * same without `key` (every flag evaluated and serialised). Reports the phases in ms since t0 and epoch times, so the
 * parent can also time the whole process start. argv[2] = JSON { store, key }.
 */
import { request } from 'node:http';
import { createFlagmount } from '@flagmount/core';
import { flagmountEvaluatePath } from '../peers/contexts.js';
import { fail, report } from './child.js';
import { mountFlagmount } from './frameworks.js';
import { BENCH_KEYS, PREFIX, type StoreSpec } from './host-config.js';
import { openStore } from './stores.js';

// Imported before timing, so that t0..first answer is Flagmount's start, not module loading.
await import('fastify');
await import('@flagmount/fastify');
await import('@flagmount/storage-sqlite');

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const { store, key } = JSON.parse(process.argv[2]!) as { store: StoreSpec; key: string };
  const importedAt = performance.timeOrigin + performance.now();
  const t0 = performance.now();
  const instance = await createFlagmount({
    storage: await openStore(store),
    bootstrap: { managementKey: BENCH_KEYS.managementKey, sdkKeys: { development: { publishableKey: BENCH_KEYS.publishableKey, secretKey: BENCH_KEYS.secretKey } } },
  });
  const created = performance.now();
  const server = await mountFlagmount('fastify', instance, PREFIX);
  const listening = performance.now();
  const context = { user: { id: 'user-1', plan: 'pro', country: 'de' }, company: { id: 'company-1', tier: 'enterprise' } };
  const path = flagmountEvaluatePath(PREFIX, BENCH_KEYS.publishableKey, context);
  const answer = await get(server.port, `${path}&key=${encodeURIComponent(key)}`);
  const answered = performance.now();
  if (answer.status !== 200) throw new Error(`first request → ${answer.status} ${answer.body.slice(0, 300)}`);
  const fullStart = performance.now();
  const full = await get(server.port, path);
  const fullMs = performance.now() - fullStart;
  if (full.status !== 200) throw new Error(`evaluate-all → ${full.status} ${full.body.slice(0, 300)}`);
  const features = Object.keys((JSON.parse(full.body) as { features: object }).features).length;
  report({
    type: 'result',
    createMs: created - t0,
    listenMs: listening - t0,
    firstAnswerMs: answered - t0,
    t0Epoch: performance.timeOrigin + t0,
    importedEpoch: importedAt,
    answeredEpoch: performance.timeOrigin + answered,
    fullMs,
    fullBytes: Buffer.byteLength(full.body),
    features,
  });
  await server.close();
  await instance.close();
  process.disconnect?.();
}

main().catch(fail);
