// The handler of the BMF list poll. Transport faults are retried (the job runner's backoff): a body
// without its `Stand:` footer counts as one, since it was cut off on the way, until the last attempt,
// which refuses it. A well-formed list that fails the safety valve, or that cannot be read, fails at
// once (UnrecoverableInputError, the list kept on the job), the reason is kept in crawl_state and counted
// in /metrics, and the listings stay as they were.
import type { Job } from 'bullmq';
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import { UnrecoverableInputError, UpstreamUnavailableError } from '../jobs/errors.js';
import { UpstreamBodyTooLargeError } from '../upstream/bodyLimit.js';
import type { Enqueue, Handlers, RegisterRunReport } from '../register.js';
import type { BMF_JOBS } from './jobs.js';
import { applyListVersion, linkCounts, readListState, recordRefusal, relinkListings, type RefusalReason } from './listingStore.js';
import type { LsuClient } from './lsuClient.js';
import { LsuParseError, lsuListComplete, parseLsuList } from './lsuParser.js';

/** A list the pipeline will not apply; `reason` is the metric label. */
export class LsuRefusedError extends UnrecoverableInputError {
  constructor(readonly reason: RefusalReason, message: string, rawInput: string) {
    super(message, rawInput);
  }
}

export interface BmfHandlerDeps {
  sql: Sql;
  client: LsuClient;
  enqueue: Enqueue<typeof BMF_JOBS>;
  log: Logger;
  onRun?: (event: RegisterRunReport) => void;
}

export function bmfHandlers(deps: BmfHandlerDeps): Handlers<typeof BMF_JOBS> {
  const { sql, client, enqueue, log } = deps;
  const refuse = async (reason: RefusalReason, message: string, text: string, version: string | null): Promise<never> => {
    await recordRefusal(sql, { reason, message, version });
    deps.onRun?.({ outcome: 'refused', reason });
    log.warn({ reason, version }, message);
    throw new LsuRefusedError(reason, message, text);
  };
  /** A poll is a run; its watermark is the applied list's version (its `Stand:`), which GET /api/v1/status shows. */
  const succeeded = async (itemsFetched: number, version: string | null) => deps.onRun?.({
    outcome: 'success', itemsFetched, linksByEvidence: await linkCounts(sql), ...(version ? { watermark: version } : {}),
  });

  return {
    poll: async (payload, job: Job) => {
      const state = await readListState(sql);
      const reply = await client.fetchList(state).catch((err: unknown) => {
        // The same URL would bring the same bytes: refused like an unreadable list, nothing kept.
        if (err instanceof UpstreamBodyTooLargeError) return refuse('too-large', err.message, '', null);
        throw err;
      });
      let result: unknown;
      if (reply.status === 'not-modified') {
        // The list is as it was; companies stored since may link to it now.
        result = { status: 'not-modified', relinked: await relinkListings(sql) };
        await succeeded(0, state.version);
      } else {
        if (!lsuListComplete(reply.text)) {
          const message = `BMF list of ${reply.bytes} bytes ends without its Stand: footer (cut off)`;
          if (job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw new UpstreamUnavailableError('bmf', 200, message);
          await refuse('no-footer', `${message}; not applied after ${job.attemptsMade + 1} attempts`, reply.text, null);
        }
        let list;
        try {
          list = parseLsuList(reply.text);
        } catch (err) {
          if (!(err instanceof LsuParseError)) throw err;
          return refuse('unreadable', err.message, reply.text, null);
        }
        const applied = await applyListVersion(sql, list, { etag: reply.etag, lastModified: reply.lastModified, force: payload.force });
        if (applied.status === 'refused') return refuse(applied.reason, applied.message, reply.text, list.version);
        result = applied.status === 'applied' ? applied : { ...applied, relinked: await relinkListings(sql) };
        log.info(result, 'BMF list');
        await succeeded(list.rows.length, (await readListState(sql)).version);
      }
      if (payload.again) await enqueue('poll', { again: payload.again - 1 });
      return result;
    },
  };
}
