/**
 * The request body, read as JSON only when it is sent as JSON: `Content-Type: application/json`
 * (any parameters; a charset other than UTF-8 is refused by the parser), at most 64 KiB. A body
 * sent as anything else — `text/plain`, a form, or no Content-Type at all — is `415
 * unsupported_media_type` before any route sees it, so nothing it says is acted on. This is what
 * keeps a page of another site from posting JSON: an HTML form (or a `fetch` in no-cors mode) can
 * send only `text/plain`, form and multipart bodies, while `application/json` from another origin
 * needs a CORS preflight this service never grants. A request without a body (no
 * `Transfer-Encoding`, and no or a zero `Content-Length`) has nothing to check.
 */
import express, { type NextFunction, type Request, type Response } from "express";
import { ApiError } from "../core/api-error";

export function jsonBody() {
  const parse = express.json({ limit: "64kb", strict: true, type: "application/json" });
  return (request: Request, response: Response, next: NextFunction): void => {
    const length = request.headers["content-length"];
    const hasBody =
      request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
    if (!hasBody) {
      next();
      return;
    }
    if (request.is("application/json") !== "application/json") {
      next(
        new ApiError(
          "unsupported_media_type",
          "a request body must be JSON sent with `Content-Type: application/json`",
          "content-type",
        ),
      );
      return;
    }
    parse(request, response, next);
  };
}
