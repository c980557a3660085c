/**
 * Who may subscribe to `chat:{chatId}`: the one membership check of the SSE route. Chats arrive
 * in a later issue, which replaces this body with a lookup of the chat's members; until then no
 * chat exists, so nobody is a member. I/O once implemented (a membership read).
 */
export const canSubscribeToChat = async (userId: string, chatId: string): Promise<boolean> => {
  void userId;
  void chatId;
  return false;
};
