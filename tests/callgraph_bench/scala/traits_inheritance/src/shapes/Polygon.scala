package shapes

abstract class Polygon(val sides: Int) extends Shape {
  def perimeter: Double = sideLengths.sum
  def sideLengths: Seq[Double]
  override protected def kind(): String = s"$sides-gon"
}

class Rect(val w: Double, val h: Double) extends Polygon(4) with Scalable {
  def area: Double = w * h
  def sideLengths: Seq[Double] = Seq(w, h, w, h)
  def scale(factor: Double): Rect = new Rect(w * factor, h * factor)
  override def describe(): String = "rect: " + super.describe()
}

class Square(side: Double) extends Rect(side, side) {
  override protected def kind(): String = "square"
  def grow(): Square = new Square(side + 1)
  def diagonal: Double = math.sqrt(2) * w
}
