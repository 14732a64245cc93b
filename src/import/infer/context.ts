// Shared state of one inference run: the variables and secrets the project will need, the
// open questions raised, and notes for the plan.
import { SET_VIA_VAR, type TemplateValue } from '../../project/index.js';
import type { Evidence, ObservedApi } from '../observed.js';
import type { DraftVariable, OpenQuestion, PlanNote, PlanSection } from './draft.js';
import { ident, upperSnake } from './names.js';

export class InferContext {
  readonly variables = new Map<string, DraftVariable>();
  readonly secrets = new Map<string, DraftVariable>();
  readonly questions: OpenQuestion[] = [];
  readonly notes: PlanNote[] = [];

  constructor(readonly api: ObservedApi) {}

  /** An environment variable supplied on each run (`<SET_VIA_--var>`); returns `{{env.name}}`. */
  userVar(name: string, notes: string, value: TemplateValue = SET_VIA_VAR): string {
    const id = ident(name);
    const existing = this.variables.get(id);
    if (existing) {
      if (!existing.notes.includes(notes)) existing.notes = `${existing.notes}; ${notes}`;
    } else this.variables.set(id, { name: id, kind: 'plain', value, notes });
    return `{{env.${id}}}`;
  }

  /** A keychain secret; returns `{{secret.NAME}}`. */
  secret(name: string, notes: string): string {
    const id = upperSnake(name);
    const existing = this.secrets.get(id);
    if (existing) {
      if (!existing.notes.includes(notes)) existing.notes = `${existing.notes}; ${notes}`;
    } else this.secrets.set(id, { name: id, kind: 'secret', notes: `${notes}; set it with \`flow secret set ${id}\`` });
    return `{{secret.${id}}}`;
  }

  /** Raise an open question (docs/format.md#r2); returns its 1-based number. Identical texts are merged. */
  ask(text: string, blocks: string[], evidence?: Evidence): number {
    const same = this.questions.findIndex((q) => q.text === text);
    if (same >= 0) {
      for (const b of blocks) if (!this.questions[same].blocks.includes(b)) this.questions[same].blocks.push(b);
      return same + 1;
    }
    this.questions.push({ text, blocks: [...blocks], evidence });
    return this.questions.length;
  }

  private readonly counted = new Map<string, { section: PlanSection; items: string[] }>();

  /** A note that applies to many items: written once, with the count and the first few. */
  count(section: PlanSection, text: string, item: string): void {
    const entry = this.counted.get(text) ?? { section, items: [] };
    if (!entry.items.length) this.counted.set(text, entry);
    entry.items.push(item);
  }

  allNotes(): PlanNote[] {
    const counted = [...this.counted].map(([text, { section, items }]) => ({
      section,
      text: `${text}: ${items.length} (${items.slice(0, 5).join(', ')}${items.length > 5 ? ', …' : ''}).`,
    }));
    return [...this.notes, ...counted];
  }

  /** A note for the plan, written at the end of the section it explains (docs/format.md#the-plan has no other). */
  note(section: PlanSection, text: string): void {
    if (!this.notes.some((n) => n.text === text)) this.notes.push({ section, text });
  }
}
