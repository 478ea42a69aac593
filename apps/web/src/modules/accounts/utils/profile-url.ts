/** The address of the user's public profile page: this site's origin plus the username. */
export function publicProfileUrl(username: string): string {
  return `${window.location.origin}/${username}`;
}
