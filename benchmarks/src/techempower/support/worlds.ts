/** The three database answers as the peers' own TechEmpower entries compute them, over the shared data layer. */
import { randomWorldNumber, type World } from '../contract';
import { renderFortunes } from './fortunes-html';
import type { WorldStore } from './world-store';

/** `count` random worlds, each read by a query of its own, all in flight at once. */
export function readWorlds(store: WorldStore, count: number): Promise<World[]> {
  const reads = new Array<Promise<World>>(count);
  for (let index = 0; index < count; index++) reads[index] = store.find(randomWorldNumber());
  return Promise.all(reads);
}

/** Reads `count` worlds, gives each a new random number, writes them in one statement. */
export async function updateWorlds(store: WorldStore, count: number): Promise<World[]> {
  const worlds = await readWorlds(store, count);
  for (const world of worlds) world.randomNumber = randomWorldNumber();
  await store.update(worlds);
  return worlds;
}

export async function fortunesPage(store: WorldStore): Promise<string> {
  return renderFortunes(await store.fortunes());
}
