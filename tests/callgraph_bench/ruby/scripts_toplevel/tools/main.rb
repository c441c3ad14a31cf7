require_relative "report"
require_relative "helpers"

rows = ARGV.map(&:to_s)
report = build_report(rows)
puts report.body
puts banner("done")
slugify = "x"
puts slugify

def main
  rows = %w[a b]
  build_report(rows).to_s
end

main
