/** 空对话的中文文本：问候语与开场提示（并入 ZH_MESSAGES）。 */
export const EMPTY_ZH = {
  'empty.title': '新对话',
  'empty.modelPrefix': '模型：',
  'empty.headerActionsHint': '发出第一条消息后可用',
  'empty.greeting': '有什么可以帮你？',
  'empty.starters': '开场提示',
  'empty.editStarters': '在 设置 → 提示词 中编辑这些',
  'empty.ownStarters': '你自己的提示词（设置 → 提示词）会显示在这里',
  'starter.plot.title': '用 Python 画图',
  'starter.plot.text': '用 Python 画出奥斯陆和新加坡每月平均气温的折线图，并保存为 PNG。',
  'starter.search.title': '搜索网络',
  'starter.search.text': '搜索本周最重要的 AI 新闻，并附上来源进行总结。',
  'starter.summarise.title': '总结网页',
  'starter.summarise.text': '用五个要点总结这个网页：',
  'starter.explain.title': '通俗解释',
  'starter.explain.text': '像给一个好奇的中学生讲解一样，解释公钥密码学是如何工作的。',
} as const;
