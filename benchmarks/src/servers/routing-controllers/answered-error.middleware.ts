/**
 * routing-controllers' default error handler sends the error answer and then passes the error on
 * (`next(error)`). With nothing after it, Express's final handler sees an error on an answer already
 * sent and destroys the socket: every refused request (a 400 for an invalid order) closed its keep-alive
 * connection without saying `Connection: close`, and a client that reused it got a reset
 * (typestack/routing-controllers#50, #243). The README's own error-handler idiom ends the chain here.
 */
import type { NextFunction, Request, Response } from 'express';
import { type ExpressErrorMiddlewareInterface, Middleware } from 'routing-controllers';

@Middleware({ type: 'after' })
export class AnsweredErrorHandler implements ExpressErrorMiddlewareInterface {
  error(error: unknown, _request: Request, response: Response, next: NextFunction): void {
    if (response.headersSent) return; // the default error handler has answered
    next(error);
  }
}
