/**
 * The one way a publisher answer that failed its zod schema becomes an error: `publisher_error`
 * naming the first issue (where, and what zod says), never a TypeError further on.
 */
import { permanentError } from "./errors";

/** The part of a zod error this reads (zod 4's ZodError, from "zod" or "@hono/zod-openapi"). */
interface SchemaError {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}

/** The first issue: its path (below `under`, "(root)" for the answer itself) and zod's message. */
export function firstIssue(
  error: SchemaError,
  under: readonly string[] = [],
): { path: string; message: string } {
  const issue = error.issues[0];
  return {
    path: [...under, ...(issue?.path ?? []).map(String)].join(".") || "(root)",
    message: issue?.message ?? "invalid",
  };
}

/** The first issue as "<path>: <message>". */
export function issueText(error: SchemaError, under: readonly string[] = []): string {
  const { path, message } = firstIssue(error, under);
  return `${path}: ${message}`;
}

/** The answer as its schema reads it; otherwise publisher_error "<what>: unexpected answer at <path>: <message>". */
export function parseAnswer<T>(
  schema: { safeParse(data: unknown): { success: true; data: T } | { success: false; error: SchemaError } },
  data: unknown,
  what: string,
): T {
  const parsed = schema.safeParse(data);
  if (!parsed.success)
    throw permanentError("publisher_error", `${what}: unexpected answer at ${issueText(parsed.error)}`);
  return parsed.data;
}
