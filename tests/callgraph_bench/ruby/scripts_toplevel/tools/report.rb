require_relative "helpers"
require "json"

class Report
  def initialize(rows)
    @rows = rows
  end

  def to_s
    banner("Report") + body
  end

  def body
    @rows.map { |r| format_row(r) }.join("\n")
  end

  def format_row(row)
    slugify(row.to_s)
  end
end

def build_report(rows)
  Report.new(rows)
end
