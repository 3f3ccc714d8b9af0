/** Events fired after a route answered (`@Event`), and the plugin that fires them. */
export { eventsPlugin } from './events-plugin';
export type { RestEvent } from './contracts';
export { Event, type EventOptions, type EventBinding, EVENTS } from './event-decorator';
