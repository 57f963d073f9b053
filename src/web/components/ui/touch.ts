/**
 * On a phone (below `sm`), every field and button inside gets a finger's 44 px of height; wider screens keep the
 * compact sizes. For a page's form card (sign-in, password reset) or a phone-first page (the driver's home). A switch
 * keeps its size: its label, 44 px high beside it, is the target.
 */
export const TOUCH_FORM =
  "max-sm:[&_input:not([type=radio]):not([type=checkbox])]:h-11 max-sm:[&_select]:h-11 max-sm:[&_button:not([role=switch])]:min-h-11 max-sm:[&_a]:min-h-11";
