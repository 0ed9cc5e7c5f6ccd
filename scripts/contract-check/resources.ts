// Ids of real resources for path parameters. The check lists before it reads: ids returned by a listing
// (`GET /patients` → `data[].id`) feed the paths under that collection (`/patients/{id}…`), ids that a
// create operation answered (201) are preferred for destructive operations, and API links found in any
// answer (`/api/treatments/…/images/…/display`) give whole sets of path values. The check's own accounts
// are never put into a destructive operation's path.
import type { Operation } from './contract';

const isObject = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

export class ResourcePool {
  private readonly listed = new Map<string, Set<string>>();
  private readonly created = new Map<string, Set<string>>();
  private readonly linked = new Map<string, Record<string, string>[]>();
  readonly protectedIds = new Set<string>();
  private readonly templates: { template: string; names: string[]; pattern: RegExp }[];

  constructor(
    operations: Operation[],
    private readonly basePath: string,
  ) {
    const unique = [...new Set(operations.map((o) => o.path))].filter((p) => p.includes('{'));
    this.templates = unique.map((template) => ({
      template,
      names: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
      pattern: new RegExp(`^${escapeRegExp(basePath)}${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '([^/?#]+)')}$`),
    }));
  }

  /** The collection a path's first parameter belongs to: `/patients/{id}/treatments` → `patients`. */
  static collectionOf(path: string): string | null {
    const segments = path.split('/');
    const index = segments.findIndex((s) => s.startsWith('{'));
    return index > 0 ? segments[index - 1] : null;
  }

  /** Learns from one successful JSON answer. */
  harvest(operation: Operation, status: number, body: unknown): void {
    if (status < 200 || status >= 300) return;
    const data = isObject(body) ? body.data : undefined;
    const last = operation.path.split('/').pop() ?? '';
    if (operation.method === 'GET' && !last.startsWith('{') && Array.isArray(data)) {
      for (const item of data) if (isObject(item) && typeof item.id === 'string') add(this.listed, last, item.id);
    }
    if (operation.method === 'POST' && status === 201 && isObject(data) && typeof data.id === 'string') add(this.created, last, data.id);
    this.walkLinks(body, 0);
  }

  private walkLinks(value: unknown, depth: number): void {
    if (depth > 8) return;
    if (typeof value === 'string' && value.startsWith(`${this.basePath}/`)) {
      const path = value.split('?')[0];
      for (const { template, names, pattern } of this.templates) {
        const match = pattern.exec(path);
        if (!match) continue;
        const values = Object.fromEntries(names.map((name, i) => [name, match[i + 1]]));
        const known = this.linked.get(template) ?? [];
        if (known.length < 20 && !known.some((k) => JSON.stringify(k) === JSON.stringify(values))) known.push(values);
        this.linked.set(template, known);
      }
    } else if (Array.isArray(value)) value.forEach((v) => this.walkLinks(v, depth + 1));
    else if (isObject(value)) Object.values(value).forEach((v) => this.walkLinks(v, depth + 1));
  }

  /** Known path values for the operation, best first; for destructive operations never the check's own ids. */
  pathValues(operation: Operation, destructive: boolean): Record<string, string>[] {
    const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    if (!names.length) return [];
    const safe = (values: Record<string, string>) => !destructive || !Object.values(values).some((v) => this.protectedIds.has(v));
    const linked = (this.linked.get(operation.path) ?? []).filter(safe);
    const collection = ResourcePool.collectionOf(operation.path);
    const created = [...(collection ? this.created.get(collection) ?? [] : [])];
    const listed = [...(collection ? this.listed.get(collection) ?? [] : [])].filter((id) => !created.includes(id));
    // Destructive operations take what the check created first; others read the listed (seeded) resources.
    const ids = (destructive ? [...created, ...listed] : [...listed, ...created]).filter((id) => !destructive || !this.protectedIds.has(id));
    const fromIds = names.length === 1 ? ids.map((id) => ({ [names[0]]: id })) : [];
    return [...linked, ...fromIds];
  }

  summary(): string {
    const count = (map: Map<string, Set<string>>) => [...map].map(([k, v]) => `${k} ${v.size}`).join(', ') || 'none';
    return `listed: ${count(this.listed)}; created: ${count(this.created)}; linked paths: ${[...this.linked].map(([k, v]) => `${k} ${v.length}`).join(', ') || 'none'}`;
  }
}

function add(map: Map<string, Set<string>>, key: string, id: string) {
  const set = map.get(key) ?? new Set<string>();
  if (set.size < 50) set.add(id);
  map.set(key, set);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
