import type { Storage } from '@flagmount/core';

export const NOW = new Date('2026-06-01T12:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000).toISOString();

/**
 * `old` track events from 31 days before NOW (plus an old prompt event and feedback) and a few from 29 days
 * before, for a 30-day retention window. Resolves how many rows are older than the window.
 */
export async function seedOldEvents(storage: Storage, envId: string, old: number): Promise<number> {
  const track = (id: string, timestamp: string) => ({ id, envId, userId: 'u1', companyId: null, event: 'e', attributes: {}, timestamp });
  for (let start = 0; start < old; start += 1000) {
    await storage.events.insertTracks(Array.from({ length: Math.min(1000, old - start) }, (_, i) => track(`trk_old_${start + i}`, daysAgo(31))));
  }
  await storage.events.insertTracks([track('trk_new', daysAgo(29))]);
  const prompt = (id: string, timestamp: string) => ({
    id,
    envId,
    action: 'received',
    featureId: null,
    promptId: null,
    userId: 'u1',
    promptedQuestion: null,
    timestamp,
  });
  await storage.events.insertPromptEvents([prompt('prm_old', daysAgo(40)), prompt('prm_new', daysAgo(1))]);
  const feedback = (id: string, createdAt: string) => ({
    id,
    envId,
    userId: 'u1',
    companyId: null,
    flagKey: null,
    featureId: null,
    promptId: null,
    question: null,
    promptedQuestion: null,
    source: null,
    score: 3,
    comment: null,
    createdAt,
    updatedAt: createdAt,
  });
  await storage.feedback.put(feedback('fb_old', daysAgo(31)));
  await storage.feedback.put(feedback('fb_new', daysAgo(2)));
  return old + 2;
}

/** What must remain after pruning. */
export async function remaining(storage: Storage, envId: string) {
  return {
    tracks: (await storage.events.listTracks(envId, 100_000)).map((t) => t.id),
    prompts: (await storage.events.listPromptEvents(envId, 10)).map((p) => p.id),
    feedback: (await storage.feedback.listByEnv(envId, 10)).map((f) => f.id),
  };
}

export const KEPT = { tracks: ['trk_new'], prompts: ['prm_new'], feedback: ['fb_new'] };

export async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
