// What several screens share: the extra parts of a visit card, the banner of a screen's source.

import { proof } from "./proof.js";
import { sources } from "./sources.js";
import { washer } from "./washer.js";

export const hooks = {
  /** Extra controls and markers of a visit card (state buttons, pending changes). */
  cardActions(card, element) { washer.drawActions(card, element); proof.draw(card, element); },
  /** The banner over a screen whose data comes from a network source. */
  sourceBanner(screen, element) { sources.drawScreenBanner(screen, element); },
};
