import { adminRouter } from "../routers/admin/router";
import { authRouter } from "../routers/auth/router";
import { platformRouter } from "../routers/platform/router";
import { userRouter } from "../routers/user/router";
import { createCallerFactory, createTRPCRouter } from "./init";

export const appRouter = createTRPCRouter({
  auth: authRouter,
  user: userRouter,
  platform: platformRouter,
  admin: adminRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
