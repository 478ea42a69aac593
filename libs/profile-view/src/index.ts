export {
  ProfileView,
  PanelIds,
  ProfileTexts,
  headerHeight,
  type LeadKind,
  type ProfileViewMode,
  type ProfileViewProps,
  type ProfileViewUrls,
} from './profile-view.js';
export { profileCss } from './profile-css.js';
export { renderProfilePage, escapeHtml, jsonForHtml, type ProfilePageData, type ProfilePageOptions } from './render-page.js';
export { clientScript, type ClientScript } from './client-script.js';
export { safeHref, absoluteUrl } from './safe-url.js';
export { videoView, type VideoView } from './video.js';
export { SocialBadges, isSocialPlatform, type SocialBadge } from './social.js';
export { shareLinks, ShareTexts, type ShareLinks } from './share.js';
