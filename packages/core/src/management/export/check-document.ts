import { validateFilter, type Filter } from '@flagmount/engine';
import { addIssue, invalidRequest, type Issues } from '../../http/http-error.js';
import type { ExportDocument, ExportFlag, ExportTargetingBody } from '../../schemas/export.js';
import { isHtmlColor } from '../../schemas/stage.js';

/**
 * What the schema cannot say about an import document: unique names and keys, references that resolve inside the
 * document (a prerequisite names a live flag of the document other than the flag itself), filters the engine
 * accepts. Every problem is collected with its field path before anything is refused, so one answer lists them all.
 * The document is self-contained: it names only what it defines. (Cycles and depth need the store: `reconcile`.)
 */
export function checkDocument(doc: ExportDocument): void {
  const issues: Issues = {};
  const filterIssues = (filter: Filter, path: string, rolloutKey: string | null) => {
    for (const issue of validateFilter(filter, { rolloutKey })) addIssue(issues, issue.path ? `${path}.${issue.path}` : path, issue.message);
  };
  const unique = <T>(items: readonly T[], name: (item: T) => string, path: (i: number) => string, what: string) => {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      const n = name(item);
      if (seen.has(n)) addIssue(issues, path(i), `duplicate ${what}`);
      seen.add(n);
    });
    return seen;
  };

  // Environment names are unique case-insensitively (the in-process client picks environments by name).
  const envNames = unique(doc.environments, (e) => e.name.toLowerCase(), (i) => `environments.${i}.name`, 'environment name');
  unique(doc.environments, (e) => String(e.order), (i) => `environments.${i}.order`, 'environment order');
  const stageNames = unique(doc.stages, (s) => s.name, (i) => `stages.${i}.name`, 'stage name');
  doc.stages.forEach((s, i) => {
    if (!isHtmlColor(s.color)) addIssue(issues, `stages.${i}.color`, 'must be an HTML color name or a hex code');
  });
  const segmentNames = unique(doc.segments, (s) => s.name, (i) => `segments.${i}.name`, 'segment name');
  doc.segments.forEach((s, i) => filterIssues(s.filter, `segments.${i}.filter`, null));
  unique(doc.flags, (f) => f.key, (i) => `flags.${i}.key`, 'flag key');

  // A duplicate key is reported above; prerequisites resolve to its first flag.
  const flagByKey = new Map<string, ExportFlag>();
  for (const f of doc.flags) if (!flagByKey.has(f.key)) flagByKey.set(f.key, f);
  // A targeting body (stored or scheduled) as PUT targeting checks it, its references resolved inside the document.
  const checkBody = (flag: ExportFlag, body: ExportTargetingBody, path: string) => {
    body.rules.forEach((rule, r) => {
      filterIssues(rule.filter, `${path}.rules.${r}.filter`, flag.key);
      if (rule.segment !== undefined && !segmentNames.has(rule.segment)) {
        addIssue(issues, `${path}.rules.${r}.segment`, `no segment named "${rule.segment}" in segments`);
      }
    });
    const variantKeys = new Set<string>();
    body.config?.variants.forEach((variant, v) => {
      filterIssues(variant.filter, `${path}.config.variants.${v}.filter`, flag.key);
      if (variantKeys.has(variant.key)) addIssue(issues, `${path}.config.variants.${v}.key`, `duplicate variant key "${variant.key}"`);
      variantKeys.add(variant.key);
    });
    const required = new Set<string>();
    body.prerequisites?.forEach((p, r) => {
      const at = `${path}.prerequisites.${r}.flagKey`;
      const target = flagByKey.get(p.flagKey);
      if (required.has(p.flagKey)) addIssue(issues, at, `duplicate prerequisite "${p.flagKey}"`);
      else if (!target) addIssue(issues, at, `no flag with key "${p.flagKey}" in flags`);
      else if (target === flag) addIssue(issues, at, 'a flag cannot require itself');
      else if (target.archived) addIssue(issues, at, `flag "${p.flagKey}" is archived`);
      required.add(p.flagKey);
    });
  };
  const checkEnvironment = (envName: string, path: string) => {
    if (!envNames.has(envName.toLowerCase())) addIssue(issues, path, `no environment named "${envName}" in environments`);
  };

  doc.flags.forEach((flag, i) => {
    const at = `flags.${i}`;
    if (flag.stage !== null && !stageNames.has(flag.stage)) addIssue(issues, `${at}.stage`, `no stage named "${flag.stage}" in stages`);
    for (const [envName, targeting] of Object.entries(flag.targeting)) {
      checkEnvironment(envName, `${at}.targeting.${envName}`);
      checkBody(flag, targeting, `${at}.targeting.${envName}`);
    }
    for (const [envName, schedules] of Object.entries(flag.schedules ?? {})) {
      const path = `${at}.schedules.${envName}`;
      checkEnvironment(envName, path);
      // As POST …/schedules refuses it; an `at` already past is accepted: the scheduler applies it on its next look.
      if (flag.archived && schedules.length) addIssue(issues, path, `flag "${flag.key}" is archived: it cannot be scheduled`);
      schedules.forEach((schedule, s) => checkBody(flag, schedule.targeting, `${path}.${s}.targeting`));
    }
  });
  if (Object.keys(issues).length) throw invalidRequest('Invalid import document', issues);
}
