import { ERROR_TEXT } from "../../errors";
import { mountPost } from "../mount";
import { exportHandler } from "./export.handlers";
import { exportRoute } from "./export.routes";

export const mountExport = mountPost(exportRoute, ERROR_TEXT.retrieve, exportHandler);
