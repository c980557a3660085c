-- A liquidation's trade row records the notional traded at the liquidation price (units × price),
-- as a close does; rows written before stored the position's opening size.
UPDATE "perp_trades" t SET "size" = trunc(p."units" * t."price", 8)
FROM "perp_positions" p
WHERE t."action" = 'liquidation' AND p."id" = t."position_id";
