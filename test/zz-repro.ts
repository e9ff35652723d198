import { createFlagmount } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import { MANAGEMENT_KEY, SDK_KEYS } from './http/support/harness.js';
const i = await createFlagmount({ storage: memoryStorage(), bootstrap: { managementKey: MANAGEMENT_KEY, sdkKeys: SDK_KEYS }, logger: { error: (m: string, d: any) => console.log('ERR', m, d?.error?.stack?.split('\n').slice(0,6).join('\n')) } });
const call = async (method: string, path: string, text?: string, parsed?: unknown) => {
  const r = await i.handler({ method, path, query: [], headers: { authorization: `Bearer ${MANAGEMENT_KEY}`, 'content-type': 'application/json' }, body: parsed !== undefined ? { kind: 'parsed', value: parsed } : text === undefined ? { kind: 'none' } : { kind: 'raw', text } });
  console.log(method, path, r.status, r.body?.slice(0, 300));
};
const appId = i.bootstrap!.appId;
await call('POST', '/apps', '{"name":"","__proto__":""}');
await call('POST', '/apps', '{"name":"x","__proto__":null}');
await call('POST', `/apps/${appId}/flags`, '{"key":"a","name":"b","__proto__":1}');
await call('POST', `/apps/${appId}/flags`, '{"key":"a2","name":"b","description":"' + '\\ud800' + '"}');
await call('POST', '/apps', undefined, JSON.parse('{"name":"x","__proto__":{"a":1}}'));
await i.close();
