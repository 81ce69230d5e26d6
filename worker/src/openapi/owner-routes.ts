import { createRoute, type z } from "@hono/zod-openapi";
import { multipartLimit } from "../middleware/body-limit.ts";
import { signedIn } from "../security/guard.ts";
import type { PrincipalKind } from "../security/principal.ts";
import { problemResponses } from "./problem-responses.ts";
import { json, jsonOrMultipartBody } from "./router.ts";

type Params = z.ZodObject<{ id: z.ZodType<string> }>;

interface OwnerRoute<P extends Params> {
  kind: PrincipalKind;
  /** camelCase, verb first, unique in the document (see operation-id.ts). */
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  params: P;
}

/**
 * PUT /{id} of a resource only its owner may change: JSON, or multipart/form-data with the same
 * fields plus images (bounded by `bodyLimit`); answers the updated resource.
 */
export const ownerUpdateRoute = <
  P extends Params,
  J extends z.ZodType,
  F extends z.ZodType,
  D extends z.ZodType,
  S extends number = never,
>(
  route: OwnerRoute<P> & {
    body: { json: J; form: F; limit: number };
    answer: { schema: D; description: string };
    /** Statuses beyond those of every owner update (400, 401, 403, 404, 413, 415). */
    alsoAnswers?: S[];
  },
) =>
  createRoute({
    method: "put",
    path: "/{id}",
    operationId: route.operationId,
    tags: route.tags,
    ...signedIn(route.kind, multipartLimit(route.body.limit)),
    summary: route.summary,
    description: route.description,
    request: {
      params: route.params,
      ...jsonOrMultipartBody(route.body.json, route.body.form),
    },
    responses: {
      200: json(route.answer.schema, route.answer.description),
      ...problemResponses<400 | 401 | 403 | 404 | 413 | 415 | S>(
        400,
        401,
        403,
        404,
        ...(route.alsoAnswers ?? []),
        413,
        415,
      ),
    },
  });

/** DELETE /{id} of a resource only its owner may delete; answers 204. */
export const ownerDeleteRoute = <P extends Params>(route: OwnerRoute<P>) =>
  createRoute({
    method: "delete",
    path: "/{id}",
    operationId: route.operationId,
    tags: route.tags,
    ...signedIn(route.kind),
    summary: route.summary,
    description: route.description,
    request: { params: route.params },
    responses: { 204: { description: "Deleted." }, ...problemResponses(400, 401, 403, 404) },
  });
