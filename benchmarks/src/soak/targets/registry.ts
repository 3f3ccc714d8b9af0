/** The soak targets, one file each in this folder. */
import type { SoakTarget } from '../soak-target';
import { bookingApi } from './booking-api';
import { contentGraphql } from './content-graphql';
import { frameworkHello } from './framework-hello';
import { voiceStream } from './voice-stream';

export const SOAK_TARGETS: SoakTarget[] = [frameworkHello, bookingApi, contentGraphql, voiceStream];

export function findTarget(id: string): SoakTarget {
  const target = SOAK_TARGETS.find((candidate) => candidate.id === id);
  if (!target)
    throw new Error(`unknown target "${id}"; known: ${SOAK_TARGETS.map((candidate) => candidate.id).join(', ')}`);
  return target;
}
