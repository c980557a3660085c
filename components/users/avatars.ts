/** The built-in avatars a player can pick without uploading (public/avatars). */
export const BUILT_IN_AVATARS = Array.from({ length: 8 }, (_, i) => `/avatars/${i + 1}.svg`);
