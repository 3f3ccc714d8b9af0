/**
 * Scenario 5's event: servers without an event system of their own emit `profile.viewed`
 * on a Node EventEmitter after the response; the listener counts, and `GET /stats` reports the count.
 */
import { EventEmitter } from 'node:events';
import { PROFILE_VIEWED_EVENT } from '../../contract/routes';

export interface ProfileStats {
  profileViews: number;
}

export function createProfileEvents(): { events: EventEmitter; stats: ProfileStats } {
  const events = new EventEmitter();
  const stats: ProfileStats = { profileViews: 0 };
  events.on(PROFILE_VIEWED_EVENT, () => {
    stats.profileViews++;
  });
  return { events, stats };
}
