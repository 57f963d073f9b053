import { ZPublicUser } from "../auth";

export const ZAuthMeAnswer = ZPublicUser.nullable();
