// The BMF register's one job: download the list of bogus companies and apply it when its version is new.
import { z } from 'zod';

export const BMF_JOBS = {
  /**
   * Scheduled daily: GET the list (conditional), parse it, apply it by diff. `again`: fetch it that many
   * more times, one after another (a fixtures replay walks its list versions so); `force`: apply a list
   * that removes more than the safety valve allows, after an operator has checked it.
   */
  poll: {
    name: 'bmf.poll',
    payload: z.object({ again: z.number().int().min(0).max(100).optional(), force: z.boolean().optional() }),
    jobId: (p: { again?: number; force?: boolean }) => `poll.${p.again ?? 0}${p.force ? '.force' : ''}`,
  },
};
