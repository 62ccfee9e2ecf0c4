import { ERROR_TEXT } from "../../errors";
import { mountPost } from "../mount";
import { createWebhookHandler } from "./webhooks.handlers";
import { createWebhookRoute } from "./webhooks.routes";

export const mountWebhooks = mountPost(createWebhookRoute, ERROR_TEXT.webhook, createWebhookHandler);
