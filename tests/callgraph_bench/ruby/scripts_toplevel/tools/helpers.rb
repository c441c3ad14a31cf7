def slugify(text)
  text.downcase.strip.gsub(/\s+/, "-")
end

def banner(title)
  line = "=" * 20
  [line, slugify(title), line].join("\n")
end
