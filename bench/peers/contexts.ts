import { COUNTRIES, PLANS, TIERS } from './flag-mix.js';

/** One evaluation context of the HTTP benchmark: a user of a company, with the attributes the rules read. */
export interface BenchContext {
  user: { id: string; plan: string; country: string };
  company: { id: string; tier: string };
}

/** `count` distinct users spread over 100 companies; deterministic. */
export function benchContexts(count: number): BenchContext[] {
  const out: BenchContext[] = [];
  for (let i = 0; i < count; i++) {
    const company = i % 100;
    out.push({
      user: { id: `user-${i}`, plan: PLANS[i % PLANS.length]!, country: COUNTRIES[(i * 7) % COUNTRIES.length]! },
      company: { id: `company-${company}`, tier: TIERS[company % TIERS.length]! },
    });
  }
  return out;
}

/** Flagmount: `GET {prefix}/features/evaluated?contextJson=…&publishableKey=…` (the browser SDK's way of authenticating). */
export function flagmountEvaluatePath(prefix: string, publishableKey: string, context: BenchContext): string {
  return `${prefix}/features/evaluated?contextJson=${encodeURIComponent(JSON.stringify(context))}&publishableKey=${encodeURIComponent(publishableKey)}`;
}

/** Unleash frontend API: root fields `userId`, the rest become `properties` (Unleash's createContext). */
export function unleashFrontendPath(context: BenchContext): string {
  const query = new URLSearchParams({
    userId: context.user.id,
    plan: context.user.plan,
    country: context.user.country,
    companyId: context.company.id,
    tier: context.company.tier,
  });
  return `/api/frontend?${query.toString()}`;
}
