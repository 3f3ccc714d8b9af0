/**
 * Emits `profile.viewed` once the response has been sent ('finish' on the Node response under either
 * platform: Express's res, or Fastify's reply.raw); an @OnEvent listener counts it.
 */
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { Observable } from 'rxjs';
import { PROFILE_VIEWED_EVENT } from '../../contract/routes';
import type { AuthenticatedRequest } from './bearer.guard';

interface NodeResponseLike {
  once(event: 'finish', listener: () => void): unknown;
}

@Injectable()
export class ProfileViewedInterceptor implements NestInterceptor {
  constructor(private readonly events: EventEmitter2) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const response = http.getResponse<NodeResponseLike | { raw: NodeResponseLike }>();
    const nodeResponse = 'raw' in response ? response.raw : response;
    nodeResponse.once('finish', () => this.events.emit(PROFILE_VIEWED_EVENT, request.user));
    return next.handle();
  }
}
