import { z } from "zod";
import { ZPlace } from "./common";

export const ZPlacesSearchAnswer = z.array(ZPlace);
