import { ProfileDefaults, type PublicProfile } from '@digicard/contracts';
import type { ProfilePageOptions } from '../src/index.js';

/** A DigiGold profile with every part filled in, plus some entries the page must leave out. */
export const sampleProfile = (): PublicProfile => ({
  username: 'thabo',
  firstName: 'Thabo',
  lastName: 'Mokoena',
  email: 'thabo@example.co.za',
  membership: 'DigiGold',
  features: { socialLinks: true, leadForm: true, gallery: true, video: true, products: true, shareContact: true },
  updatedAt: '2025-01-01T00:00:00.000Z',
  document: {
    ...ProfileDefaults,
    title: 'Sales Director',
    profileBio: 'Twenty years of helping Cape Town businesses grow.\nAsk me about solar.',
    tel: '082 123 4567',
    profileImage: '/media/profile_image_0001.webp',
    profileImageWidth: 40,
    profileImageHeight: 150,
    profileBackground: '/media/cover_image_00001.webp',
    videoLink: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    businessName: 'Mokoena Solar (Pty) Ltd',
    businessLogo: '/media/business_logo_0001.png',
    businessLogoWidth: 40,
    websiteLinks: [
      { buttonName: 'Our website', url: 'https://mokoena-solar.example.co.za' },
      { buttonName: '', url: 'https://no-button-name.example.com' },
      { buttonName: 'Book a site visit', url: 'https://book.example.co.za/thabo' },
    ],
    socialLinks: [
      { platform: 'facebook', url: 'https://facebook.com/mokoenasolar' },
      { platform: 'linkedin', url: 'https://linkedin.com/in/thabo' },
      { platform: 'whatsapp', url: 'https://wa.me/27821234567' },
      { platform: 'myspace' as 'facebook', url: 'https://myspace.example.com/thabo' },
      { platform: 'instagram', url: 'https://instagram.com/mokoenasolar' },
    ],
    gallery: [
      { imageUrl: '/media/gallery_image_0001.webp' },
      { imageUrl: '' },
      { imageUrl: '/media/gallery_image_0002.webp' },
      { imageUrl: '/media/gallery_image_0003.webp' },
    ],
    products: [
      { name: 'Home solar kit', link: 'https://mokoena-solar.example.co.za/home', imageUrl: '/media/product_image_001.webp' },
      { name: 'Unlinked product', link: '', imageUrl: '/media/product_image_002.webp' },
      { name: 'Battery backup', link: 'https://mokoena-solar.example.co.za/battery', imageUrl: '' },
    ],
    profileBackgroundColor: '#f3efe6',
    mainFontColor: '#1d1d1d',
    buttonBackgroundColor: '#670404',
    buttonFontColor: '#ffffff',
    buttonBorderColor: '#000000',
    buttonBorderWidth: 2,
    sendBtnBackgroundColor: '#ffffff',
    sendBtnFontColor: '#670404',
  },
});

export const pageOptions = (profile: PublicProfile = sampleProfile()): ProfilePageOptions => ({
  profile,
  brandName: 'DigiCard',
  siteUrl: 'https://digicard.example.co.za/',
  profileUrl: `https://digicard.example.co.za/${profile.username}`,
  urls: {
    vcard: `/api/profiles/${profile.username}/vcard`,
    leads: `/api/profiles/${profile.username}/leads`,
    register: '/register',
  },
  scriptUrl: '/assets/profile-page.js?v=abc123',
});
