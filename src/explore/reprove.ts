// A finding is re-proven before it is reported: the steps the sequence sent, exactly those
// (with the same bodies and queries), are sent again on a fresh fork against the same server,
// a few times (index.ts). It is a finding when every replay shows the same problem at the same
// operation; when one does not, the problem is reported apart, as flaky.
import type { Project } from '../project/index.js';
import type { Session, Seen, StepRecord } from './session.js';

/** Send `steps` again in `session` (a replay's, which collects what it sees); whether it showed `code` at `operation`. */
export async function reproduces(session: Session, seen: Seen[], project: Project, steps: StepRecord[], code: string, operation: string): Promise<boolean> {
  try {
    for (const step of steps) {
      const op = project.operations.get(step.operation);
      if (!op) return false;
      if (step.invalid) await session.invalid(op, step.body);
      else if (step.role === 'create' || step.role === 'update') await session.write(op, step.role, step.body);
      else if (step.role === 'delete') await session.delete(op);
      else if (step.list) await session.list(op, step.query);
      else await session.read(op);
    }
  } finally {
    await session.close();
  }
  return seen.some((s) => s.problem.code === code && s.operation === operation);
}
