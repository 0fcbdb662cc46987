// Issue 43 item 9: an e-mail address in the alarm log broke anywhere ("coordinat" / "or02@demo.cdms"),
// so it read as two addresses. It may now break only where a reader expects a line to go on: before the
// "@" and before each dot of the domain (the usual typographic rule for addresses). Anything else, a
// phone number or a name, is kept whole; the browser still breaks a phone number at its hyphens.

/** The address cut at its sensible break points: join the pieces with a line-break opportunity. */
export function addressBreakPieces(address: string): string[] {
  const at = address.lastIndexOf('@');
  if (at <= 0) return [address];
  const domain = address.slice(at + 1).split('.');
  const pieces = [address.slice(0, at), `@${domain[0] ?? ''}`];
  for (const label of domain.slice(1)) pieces.push(`.${label}`);
  return pieces;
}
