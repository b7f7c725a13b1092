/**
 * The reserved skill `document-generation` that ships built in (seed: 内置文档生成技能,
 * docs/seeds/000_67077f376ad9eee3.txt). Its index line and its body are the seed's 准确为 text,
 * byte for byte; a test cuts both out of the seed and compares. It is read-only: a user skill with
 * the same name overrides it (seed: 管理员创建同名技能时会有意覆盖内置版本).
 */
import type { Skill } from '../../shared/dto';

export const DOCUMENT_GENERATION_NAME = 'document-generation';

/** The "when to use" text; the index line is `document-generation: ` followed by it. */
export const DOCUMENT_GENERATION_WHEN_TO_USE =
  'MUST load this BEFORE generating any downloadable document (PDF / PPTX / DOCX / XLSX) — it contains the required recipes and self-checks.';

/** The full fixed body (no trailing newline). Backticks are escaped for the template literal. */
export const DOCUMENT_GENERATION_INSTRUCTIONS = `## Document-generation recipes (run inside python_execute, write to /workspace/outputs/)

**PDF (preferred):** semantic HTML (h1/h2/p/ul/table/blockquote — not styled divs) + WeasyPrint; it handles page breaks, fonts, and tables natively.
\`\`\`python
from weasyprint import HTML, CSS
HTML(string=html).write_pdf("/workspace/outputs/report.pdf", stylesheets=[CSS(string="""
@page { size: A4; margin: 25mm; }
body { font-family: 'Noto Sans CJK SC','DejaVu Sans'; font-size: 11pt; line-height: 1.55; color: #1f2937; }
h1 { font-size: 22pt; } h2 { font-size: 15pt; margin: 18pt 0 6pt; } h1, h2 { color: #0f172a; font-weight: 600; }
table { width: 100%; border-collapse: collapse; }
th, td { border: 1px solid #e2e8f0; padding: 6pt 8pt; text-align: left; } th { background: #f1f5f9; font-weight: 600; }
""")])
\`\`\`

**PPT (.pptx):** author each slide as a semantic-HTML string and parse it into native PPTX shapes with BeautifulSoup + python-pptx — the sandbox has NO browser, never attempt playwright/screenshot routes.
\`\`\`python
from bs4 import BeautifulSoup
from pptx import Presentation
from pptx.util import Inches, Pt
from pptx.dml.color import RGBColor
prs = Presentation(); prs.slide_width, prs.slide_height = Inches(13.33), Inches(7.5)
for html in slides_html:  # one string per slide, e.g. "<h1>Title</h1><p>Subtitle</p>"
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    tf = slide.shapes.add_textbox(Inches(0.8), Inches(0.6), Inches(11.7), Inches(6)).text_frame
    tf.word_wrap = True
    for el in BeautifulSoup(html, "html.parser").find_all(["h1", "h2", "p", "li", "img"]):
        if el.name == "img" and el.get("src"):
            slide.shapes.add_picture(el["src"], Inches(1), Inches(2.2), width=Inches(8)); continue
        p = tf.add_paragraph() if tf.paragraphs[0].runs else tf.paragraphs[0]
        r = p.add_run(); r.text = ("• " if el.name == "li" else "") + el.get_text()
        r.font.name = "Noto Sans CJK SC"; r.font.bold = el.name in ("h1", "h2")
        r.font.size = Pt({"h1": 40, "h2": 28}.get(el.name, 18))
        r.font.color.rgb = RGBColor.from_string("0f172a" if r.font.bold else "1f2937")
prs.save("/workspace/outputs/deck.pptx")
\`\`\`
Map <table> via slide.shapes.add_table likewise. Charts/diagrams: render them inside Python (for example, a matplotlib PNG under /workspace/outputs) and then add_picture. Every original conversation upload, including PDF/DOCX/PPTX/XLSX and images, is available without format conversion under /workspace/uploads. For a targeted edit, open that original file with the matching library, change only the requested content, and save the result under /workspace/outputs so its existing layout and formatting are retained. Prior image-generation outputs are also staged under /workspace/uploads; public images downloaded with fetch_image are available under /workspace/downloads.

**Word (.docx):** python-docx — set doc.styles['Normal'].font.name = 'Noto Sans CJK SC' (size Pt(11)), then add_heading / add_paragraph / add_table / add_picture.

**Excel (.xlsx):** openpyxl or xlsxwriter (charts, conditional formatting, frozen panes all supported).

**Self-check before presenting (no browser — never screenshots):** reopen each file structurally: os.path.getsize > 0; pypdf — page count + page-1 extract_text() shows expected content incl. CJK glyphs; python-pptx — slide count + title/bullet text present; DOCX/XLSX likewise. Always set Noto Sans CJK fonts so Chinese never renders as tofu boxes (□□□). On failure, fix and re-render (up to 3 attempts).`;

/** Icon shown for the built-in skill in lists. */
export const DOCUMENT_GENERATION_ICON = '📄';

/** The built-in skill as the skills service lists it: read-only, no assets, time 0. */
export const BUILT_IN_DOCUMENT_GENERATION: Skill = {
  name: DOCUMENT_GENERATION_NAME,
  icon: DOCUMENT_GENERATION_ICON,
  whenToUse: DOCUMENT_GENERATION_WHEN_TO_USE,
  instructions: DOCUMENT_GENERATION_INSTRUCTIONS,
  assets: [],
  builtIn: true,
  createdAt: 0,
  updatedAt: 0,
};
