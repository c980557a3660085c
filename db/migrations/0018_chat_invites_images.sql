-- Issue 29. Group chat invitations: a participant added by someone else is `invited` until they
-- accept (lib/chats); everyone already in a chat stays a member.
ALTER TABLE "chat_participants" ADD COLUMN "status" text DEFAULT 'member' NOT NULL;
--> statement-breakpoint
-- No image points back into the service (lib/uploads/image-url.ts): stored image URLs that are not
-- an upload (/api/uploads/<key>), a bundled image (/avatars/<name>.svg, /game-assets/actors|organizations/
-- <name>.svg), relative or absolute, or an https URL (printable ASCII, a plain host, no dot segments
-- or encoded slashes, no path under /api) are cleared. The migration does not know PUBLIC_BASE_URL,
-- so it applies the rule as the service does without it (a path under /api is cleared on any host).
-- test/api/image-urls.int.test.ts runs these predicates against the service's own check.
UPDATE "posts" SET "image_url" = NULL WHERE "image_url" <> '' AND (length("image_url") > 2048 OR NOT (
    "image_url" ~ '^/(api/uploads/[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9]+)?|avatars/[A-Za-z0-9_-]+\.svg|game-assets/(actors|organizations)/[A-Za-z0-9_-]+\.svg)$'
    OR "image_url" ~ '^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?/(api/uploads/[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9]+)?|avatars/[A-Za-z0-9_-]+\.svg|game-assets/(actors|organizations)/[A-Za-z0-9_-]+\.svg)$'
    OR ("image_url" ~ '^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?([/?#][\x21-\x5b\x5d-\x7e]*)?$'
      AND "image_url" !~ '^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?/[^?#]*(%2[eEfF]|%5[cC])'
      AND "image_url" !~ '^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[^?#]*)?/\.\.?([/?#]|$)'
      AND "image_url" !~ '^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?/+([aA]|%61|%41)([pP]|%70|%50)([iI]|%69|%49)([^A-Za-z0-9_-]|$)')));
--> statement-breakpoint
UPDATE "users" SET "profile_image_url" = NULL WHERE "profile_image_url" <> '' AND (length("profile_image_url") > 2048 OR NOT (
    "profile_image_url" ~ '^/(api/uploads/[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9]+)?|avatars/[A-Za-z0-9_-]+\.svg|game-assets/(actors|organizations)/[A-Za-z0-9_-]+\.svg)$'
    OR "profile_image_url" ~ '^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?/(api/uploads/[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9]+)?|avatars/[A-Za-z0-9_-]+\.svg|game-assets/(actors|organizations)/[A-Za-z0-9_-]+\.svg)$'
    OR ("profile_image_url" ~ '^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?([/?#][\x21-\x5b\x5d-\x7e]*)?$'
      AND "profile_image_url" !~ '^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?/[^?#]*(%2[eEfF]|%5[cC])'
      AND "profile_image_url" !~ '^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[^?#]*)?/\.\.?([/?#]|$)'
      AND "profile_image_url" !~ '^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?/+([aA]|%61|%41)([pP]|%70|%50)([iI]|%69|%49)([^A-Za-z0-9_-]|$)')));
--> statement-breakpoint
UPDATE "users" SET "cover_image_url" = NULL WHERE "cover_image_url" <> '' AND (length("cover_image_url") > 2048 OR NOT (
    "cover_image_url" ~ '^/(api/uploads/[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9]+)?|avatars/[A-Za-z0-9_-]+\.svg|game-assets/(actors|organizations)/[A-Za-z0-9_-]+\.svg)$'
    OR "cover_image_url" ~ '^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?/(api/uploads/[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9]+)?|avatars/[A-Za-z0-9_-]+\.svg|game-assets/(actors|organizations)/[A-Za-z0-9_-]+\.svg)$'
    OR ("cover_image_url" ~ '^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?([/?#][\x21-\x5b\x5d-\x7e]*)?$'
      AND "cover_image_url" !~ '^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?/[^?#]*(%2[eEfF]|%5[cC])'
      AND "cover_image_url" !~ '^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[^?#]*)?/\.\.?([/?#]|$)'
      AND "cover_image_url" !~ '^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?/+([aA]|%61|%41)([pP]|%70|%50)([iI]|%69|%49)([^A-Za-z0-9_-]|$)')));
