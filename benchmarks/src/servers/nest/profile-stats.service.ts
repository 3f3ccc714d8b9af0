/** Counts `profile.viewed` events through an @OnEvent listener; `GET /stats` reads the count. */
import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { PROFILE_VIEWED_EVENT } from '../../contract/routes';

@Injectable()
export class ProfileStatsService {
  private profileViews = 0;

  @OnEvent(PROFILE_VIEWED_EVENT)
  onProfileViewed(): void {
    this.profileViews++;
  }

  snapshot(): { profileViews: number } {
    return { profileViews: this.profileViews };
  }
}
