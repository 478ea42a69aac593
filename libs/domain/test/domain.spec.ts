import { describe, expect, it } from '@jest/globals';
import { ProfileDefaults, UpgradeMessages, type ProfileDocument } from '@digicard/contracts';
import { lockedContent, mediaIdsOf, publicFeatures, storedDocument, visibleContent, withBusiness, withoutContent } from '../src/index.js';

const full: ProfileDocument = {
  ...ProfileDefaults,
  title: 'Sales lead',
  videoLink: 'https://www.youtube.com/watch?v=abc',
  socialLinks: [{ platform: 'facebook', url: 'https://facebook.com/naledi' }],
  gallery: [{ imageUrl: '/media/aaaaaaaaaaaa.webp' }],
  products: [{ name: 'Tea', link: '', imageUrl: '/media/bbbbbbbbbbbb.png' }],
};

describe('tier gating', () => {
  it('locks everything above DigiShare, social links from DigiSilver, the rest from DigiGold', () => {
    expect(lockedContent(full, 'DigiShare')).toEqual(['socialLinks', 'gallery', 'video', 'products']);
    expect(lockedContent(full, 'DigiSilver')).toEqual(['gallery', 'video', 'products']);
    expect(lockedContent(full, 'DigiGold')).toEqual([]);
    expect(lockedContent(full, 'DigiPlatinum')).toEqual([]);
  });

  it('does not count a gallery of empty slots or an empty video link as content', () => {
    const empty = { ...ProfileDefaults, gallery: [{ imageUrl: '' }], videoLink: '' };
    expect(lockedContent(empty, 'DigiShare')).toEqual([]);
  });

  it('hides locked content from visitors and keeps the rest', () => {
    const silver = visibleContent(full, 'DigiSilver');
    expect(silver.socialLinks).toEqual(full.socialLinks);
    expect(silver.gallery).toEqual([]);
    expect(silver.videoLink).toBe('');
    expect(silver.products).toEqual([]);
    expect(silver.title).toBe('Sales lead');
    expect(visibleContent(full, 'DigiGold')).toEqual(full);
  });

  it('leaves out only what it is told to', () => {
    expect(withoutContent(full, ['video']).videoLink).toBe('');
    expect(withoutContent(full, ['video']).products).toEqual(full.products);
  });

  it('offers the lead form from DigiGold', () => {
    expect(publicFeatures('DigiSilver')).toEqual({
      socialLinks: true,
      leadForm: false,
      gallery: false,
      video: false,
      products: false,
      shareContact: true,
    });
    expect(publicFeatures('DigiGold').leadForm).toBe(true);
    expect(UpgradeMessages.socialLinks).toBe('Upgrade to DigiSilver to unlock Social Media Links!');
  });
});

describe('business inheritance', () => {
  it('takes the business styling and content, keeps the member’s own fields', () => {
    const business = { ...full, businessName: 'Acme', buttonBackgroundColor: '#123456', title: 'Boss', profileBio: 'The boss' };
    const member = { ...ProfileDefaults, title: 'Rep', profileBio: 'Hi', businessName: 'Mine' };
    const seen = withBusiness(member, business);
    expect(seen.businessName).toBe('Acme');
    expect(seen.buttonBackgroundColor).toBe('#123456');
    expect(seen.gallery).toEqual(full.gallery);
    expect(seen.title).toBe('Rep');
    expect(seen.profileBio).toBe('Hi');
    expect(withBusiness(member, null)).toBe(member);
  });
});

describe('stored documents', () => {
  it('fills fields added since a document was stored with their defaults', () => {
    const { videoLink: _dropped, ...old } = { ...ProfileDefaults, title: 'Old' };
    const read = storedDocument(old);
    expect(read.title).toBe('Old');
    expect(read.videoLink).toBe('');
    expect(storedDocument(null)).toEqual(ProfileDefaults);
  });

  it('lists the upload ids a document shows', () => {
    expect(mediaIdsOf({ ...full, profileImage: '/media/cccccccccccc.webp' })).toEqual(['cccccccccccc', 'aaaaaaaaaaaa', 'bbbbbbbbbbbb']);
    expect(mediaIdsOf(ProfileDefaults)).toEqual([]);
  });
});
