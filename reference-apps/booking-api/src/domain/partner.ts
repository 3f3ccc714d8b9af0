/** An API partner: every booking belongs to one, and a partner sees only its own. */
export interface Partner {
  id: string;
  name: string;
}
