# Top-level helpers, not the shop's.
module Util
  def self.round(value)
    value.round
  end

  def self.slug(text)
    text.downcase.tr(" ", "-")
  end
end
