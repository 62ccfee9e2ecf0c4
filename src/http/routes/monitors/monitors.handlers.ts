import {
  createMonitor,
  changeView,
  deleteMonitor,
  findMonitor,
  listChanges,
  listMonitors,
  monitorView,
  setPaused,
} from "../../../app/monitors/store";
import { MSG } from "../../../core/validation";
import { maxMonitors, monitorMinIntervalHours } from "../../../settings";
import { endpoint } from "../../endpoint";
import { ApiError, ERROR_TEXT, invalid, UNAUTHORIZED_MESSAGE } from "../../errors";
import {
  ChangesRequestSchema,
  CreateMonitorRequestSchema,
  FULL_WALK_EVERY_DEFAULT,
  LIST_DEFAULT_LIMIT,
  ListMonitorsRequestSchema,
  MonitorIdRequestSchema,
  PauseMonitorRequestSchema,
} from "../../schemas/monitors";
import { MONITOR_NOT_FOUND_EXAMPLE } from "./monitors.routes";

const spec = {
  errorText: ERROR_TEXT.monitor,
  apiKeyPath: ["api_key"] as const,
  unauthorizedMessage: UNAUTHORIZED_MESSAGE.monitor,
};

export const MONITOR_CAP_MESSAGE = (plan: string, cap: number) =>
  `The ${plan} plan allows at most ${cap} monitors; delete one first.`;

export const MONITOR_SIZE_MESSAGE = (max: number, bytes: number) =>
  `Ensure this field has no more than ${max} bytes as stored JSON (it has ${bytes}).`;

const notFound = () => new ApiError(404, MONITOR_NOT_FOUND_EXAMPLE);
const badCursor = () => invalid(ERROR_TEXT.monitor, { cursor: ["Invalid cursor."] });

export const createMonitorHandler = endpoint(
  { ...spec, schema: CreateMonitorRequestSchema },
  async (c, input, account, d1) => {
    const minimum = monitorMinIntervalHours(c.env, account.plan);
    if (input.interval_hours < minimum)
      throw invalid(ERROR_TEXT.monitor, { interval_hours: [MSG.min(minimum)] });
    // A cap per plan: every monitor costs cron capacity and scraping, whether or not its runs fit the
    // plan's task budget. The insert checks it, so concurrent creates cannot pass it.
    const cap = maxMonitors(c.env, account.plan);
    const outcome = await createMonitor(
      c.env,
      d1.session,
      account.id,
      {
        foreignKey: input.foreign_key,
        business: input.business,
        publishers: input.publishers,
        intervalHours: input.interval_hours,
        fullWalkEvery: input.full_walk_every ?? FULL_WALK_EVERY_DEFAULT,
      },
      new URL(c.req.url).origin,
      cap,
    );
    if (!outcome.ok && outcome.reason === "cap")
      throw invalid(ERROR_TEXT.monitor, { non_field_errors: [MONITOR_CAP_MESSAGE(account.plan, cap ?? 0)] });
    if (!outcome.ok)
      throw invalid(ERROR_TEXT.monitor, {
        [outcome.field]: [MONITOR_SIZE_MESSAGE(outcome.max, outcome.bytes)],
      });
    const row = outcome.monitor;
    return c.json({ status: "success" as const, monitor_id: row.id, monitor: monitorView(row) }, 201);
  },
);

/** List cursors are "<created_at>.<monitor id>" of the last monitor of the previous page. */
function parseListCursor(cursor: string): { createdAt: number; id: string } | null {
  const dot = cursor.indexOf(".");
  const createdAt = Number(cursor.slice(0, dot));
  if (dot < 1 || !Number.isSafeInteger(createdAt) || createdAt < 0) return null;
  return { createdAt, id: cursor.slice(dot + 1) };
}

export const listMonitorsHandler = endpoint(
  { ...spec, schema: ListMonitorsRequestSchema, consistency: "read" },
  async (c, input, account, d1) => {
    const after = input.cursor === undefined ? undefined : parseListCursor(input.cursor);
    if (after === null) throw badCursor();
    const { rows, hasMore } = await listMonitors(d1.db, account.id, {
      limit: input.limit ?? LIST_DEFAULT_LIMIT,
      after,
      foreignKey: input.foreign_key,
    });
    const last = rows[rows.length - 1];
    return c.json(
      {
        monitors: rows.map(monitorView),
        next_cursor: hasMore && last ? `${last.createdAt}.${last.id}` : null,
      },
      200,
    );
  },
);

export const deleteMonitorHandler = endpoint(
  { ...spec, schema: MonitorIdRequestSchema },
  async (c, input, account, d1) => {
    if (!(await deleteMonitor(d1.db, account.id, input.monitor_id))) throw notFound();
    return c.json({ status: "success" as const, monitor_id: input.monitor_id }, 200);
  },
);

export const pauseMonitorHandler = endpoint(
  { ...spec, schema: PauseMonitorRequestSchema },
  async (c, input, account, d1) => {
    const row = await setPaused(d1.db, account.id, input.monitor_id, input.paused ?? true);
    if (!row) throw notFound();
    return c.json({ status: "success" as const, monitor: monitorView(row) }, 200);
  },
);

/** Change cursors are the sequence number of the last change listed ("0" = before the first). */
function parseSeqCursor(cursor: string | undefined): number | null {
  if (cursor === undefined) return 0;
  if (!/^\d{1,15}$/.test(cursor)) return null;
  return Number(cursor);
}

export const changesHandler = endpoint(
  { ...spec, schema: ChangesRequestSchema },
  async (c, input, account, d1) => {
    const afterSeq = parseSeqCursor(input.cursor);
    if (afterSeq === null) throw badCursor();
    const monitor = await findMonitor(d1.db, account.id, input.monitor_id);
    if (!monitor) throw notFound();
    const { rows, hasMore } = await listChanges(
      d1.db,
      monitor.id,
      afterSeq,
      input.limit ?? LIST_DEFAULT_LIMIT,
    );
    const last = rows[rows.length - 1];
    return c.json(
      { changes: rows.map(changeView), next_cursor: String(last ? last.seq : afterSeq), has_more: hasMore },
      200,
    );
  },
);
