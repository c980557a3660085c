-- A season's close is taken a batch of divisions per tick (lib/leagues/service/seasons.ts): each
-- batch finds the divisions whose members have no outcome yet. This index holds only those rows,
-- so the look-up shrinks as the close advances instead of reading every member of the season.
CREATE INDEX "league_members_unranked_idx" ON "league_members" USING btree ("season_id","tier","division") WHERE outcome is null;
