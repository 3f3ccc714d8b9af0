/** Scenario 5's authentication as a NestJS guard: a valid Bearer token puts the user on the request, else 401. */
import { type CanActivate, type ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { userFromAuthorization, type BenchUser } from '../support/bearer-tokens';

export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  user?: BenchUser;
}

@Injectable()
export class BearerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const authorization = request.headers.authorization;
    const user = userFromAuthorization(typeof authorization === 'string' ? authorization : undefined);
    if (!user) throw new UnauthorizedException('missing or invalid Bearer token');
    request.user = user;
    return true;
  }
}
