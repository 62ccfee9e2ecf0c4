import { submitRequest } from "../../../domain/tasks/submit";
import { endpoint } from "../../endpoint";
import { ERROR_TEXT, UNAUTHORIZED_MESSAGE } from "../../errors";
import { enforceTaskBudget } from "../../rate-limit";
import { SubmitRequestSchema } from "../../schemas/submit";

export const submitHandler = endpoint(
  {
    errorText: ERROR_TEXT.submit,
    schema: SubmitRequestSchema,
    apiKeyPath: ["data", "api_key"],
    unauthorizedMessage: UNAUTHORIZED_MESSAGE.submit,
    rateLimited: true,
  },
  async (c, input, account) => {
    await enforceTaskBudget(c, account, input.data.publishers.length);
    const { requestId, tasks } = await submitRequest(c.env, account.id, input, new URL(c.req.url).origin);
    const first = tasks[0];
    return c.json(
      {
        status: "success" as const,
        tasks_id: first.tasks_id,
        request_id: requestId,
        foreign_key: input.data.foreign_key,
        publisher_key: first.publisher_key,
        tasks,
      },
      201,
    );
  },
);
