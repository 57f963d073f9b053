import { z } from "zod";
import { ZLoadDocument } from "./common";

export const ZDocumentsListAnswer = z.array(ZLoadDocument);
