import { ServiceUnavailableException, type ContextProvider } from 'rest.uws';

/**
 * Refuses requests with 503 once the server is stopping: connections kept alive by clients may still carry
 * requests after the listening socket closed, and the database is about to go away.
 */
export class ServiceAvailability implements ContextProvider<never> {
  private stopping = false;

  stop(): void {
    this.stopping = true;
  }

  provide(): null {
    if (this.stopping) throw new ServiceUnavailableException('The server is shutting down; retry on another instance or in a moment', { headers: { 'Retry-After': '1' } });
    return null;
  }
}
